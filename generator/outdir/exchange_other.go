//go:build !linux || !(amd64 || arm64 || riscv64 || loong64)

package outdir

import "errors"

// exchange is not available here: Swap renames the old site aside first.
func exchange(a, b string) error { return errors.ErrUnsupported }
