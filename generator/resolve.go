package generator

import (
	"context"
	"fmt"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/source"
)

// Resolve finds the artifact that ref names in d, for the commands that
// take one (compare): what model.Dataset.Resolve takes (a full id, a
// unique prefix of at least 4 characters, pr/<n>, or the id of an
// artifact of kind tag, such as v0.1 when the archives record it so),
// else, when the site has a [project] repository, any revision git
// resolves there to a commit with results: a git tag (v0.1), a branch
// (main), HEAD~3.
func (s *Site) Resolve(ctx context.Context, d *model.Dataset, ref string) (int, error) {
	i, err := d.Resolve(ref)
	if err == nil || strings.HasPrefix(ref, "pr/") || strings.Contains(err.Error(), "ambiguous") {
		return i, err
	}
	dir := s.Config.Project.Git
	if dir == "" {
		return -1, fmt.Errorf("%w (a tag is an artifact of kind tag with that id; set [project] git to the benchmarked repository to name its git tags and branches)", err)
	}
	g, gerr := source.OpenGit(ctx, dir)
	if gerr != nil {
		return -1, fmt.Errorf("%w; [project]: %v", err, gerr)
	}
	defer g.Close()
	r, gerr := g.Resolve(ctx, ref)
	if gerr != nil {
		return -1, fmt.Errorf("%w, and git in %s does not know it either", err, dir)
	}
	if i, ok := d.Index(r.Commit); ok {
		return i, nil
	}
	return -1, fmt.Errorf("%s is %s at %s in %s, which has no results", ref, r.Ref, r.Commit[:min(12, len(r.Commit))], dir)
}
