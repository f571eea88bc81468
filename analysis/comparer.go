package analysis

// Options returns the comparer's options with the defaults filled in (the
// options its comparisons report).
func (c *Comparer) Options() Options { return c.opts.withDefaults() }
