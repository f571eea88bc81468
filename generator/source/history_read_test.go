package source

import "context"

// History is [Git.Versions] with each file read (Data), for tests. A file over
// g.MaxFileBytes comes back unread, with Err set.
func (g *Git) History(ctx context.Context, ref, dir string, isArchive func(string) bool) ([]File, error) {
	files, err := g.Versions(ctx, ref, dir, isArchive)
	if err != nil {
		return nil, err
	}
	var ids []string
	var at []int
	for i, f := range files {
		if f.Err == nil {
			ids = append(ids, f.Blob)
			at = append(at, i)
		}
	}
	err = g.ReadBlobs(ctx, ids, func(i int, data []byte) error {
		files[at[i]].Data = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}
