package planted

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfpages/perfpages/generator/archive"
)

// WriteArchives writes the suite as perfpages.run.v1 JSON archives into
// dir, one file per commit (<position>-<short sha>.json), for a site whose
// source is that directory.
func (s *Suite) WriteArchives(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for p, r := range s.Runs() {
		name := filepath.Join(dir, fmt.Sprintf("%04d-%s.json", p, r.Artifact.Short()))
		f, err := os.Create(name)
		if err != nil {
			return err
		}
		err = archive.Encode(f, r, "json", false)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}
