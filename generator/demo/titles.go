package demo

import "fmt"

// authors of the generated PRs; the names include non-ASCII letters and an
// apostrophe on purpose, so that pages get escaping exercised.
var authors = []string{
	"Ada Okafor", "Björn Lindqvist", "Chen Wei", "Dana Whitfield",
	"Emeka Eze", "Farah Haddad", "Gabriel Souza", "Hana Kobayashi",
	"Inès Moreau", "Jakub Nowak", "Kavya Raman", "Liam O'Connor",
	"Maya Goldberg", "Nils Hansen", "Olga Petrova", "Priya Natarajan",
}

var (
	speedUps = []string{
		"JSON decoding of large arrays", "route matching for static paths",
		"regex compilation of alternations", "Huffman table construction in gzip",
		"incremental builds of large modules", "string interning in the tokenizer",
		"map iteration in the scheduler", "the TLS record layer",
		"YAML anchor resolution", "sorting of small slices",
		"escaping in the JSON encoder", "package loading with many imports",
	}
	components = []string{
		"HTTP router", "JSON tokenizer", "incremental build cache", "regex compiler",
		"gzip writer", "TLS handshake state machine", "allocation profiler",
		"template engine", "package loader", "benchmark harness", "YAML decoder",
		"flag parser", "type checker", "linker",
	}
	bugs = []string{
		"a data race", "an off-by-one error", "a nil pointer dereference",
		"a goroutine leak", "quadratic behaviour", "a panic on empty input",
		"a file descriptor leak", "lost error context",
	}
	modules = []string{
		"golang.org/x/net", "golang.org/x/sys", "golang.org/x/text",
		"golang.org/x/crypto", "golang.org/x/sync", "golang.org/x/mod",
	}
	additions = []string{
		"tracing spans", "a fuzz test", "structured logging", "context cancellation",
		"a size limit", "Windows support", "a -json flag", "a progress callback",
	}
	topics = []string{
		"the release process", "the benchmark methodology", "the configuration format",
		"incremental builds", "the error codes", "the plugin interface",
	}
	simplifications = []string{
		"error handling", "buffer pooling", "the request pipeline", "option parsing",
	}
)

// prTitle builds a plausible PR title from a hash: mostly work on a
// component, some dependency bumps, and a rollup now and then (triage
// counts those).
func prTitle(h uint64) string {
	pick := func(list []string, salt uint64) string { return list[mix(h^salt)%uint64(len(list))] }
	switch h % 23 {
	case 0, 1:
		return fmt.Sprintf("Rollup of %d pull requests", 3+mix(h^1)%7)
	case 2, 3, 4, 5:
		return "Speed up " + pick(speedUps, 2)
	case 6, 7, 8:
		return "Refactor the " + pick(components, 3)
	case 9, 10, 11:
		v := mix(h ^ 4)
		return fmt.Sprintf("Bump %s to v0.%d.%d", pick(modules, 5), 20+v%25, v/25%4)
	case 12, 13, 14:
		return fmt.Sprintf("Fix %s in the %s", pick(bugs, 6), pick(components, 7))
	case 15, 16:
		return fmt.Sprintf("Add %s to the %s", pick(additions, 8), pick(components, 9))
	case 17, 18:
		return "Document " + pick(topics, 10)
	case 19, 20:
		return fmt.Sprintf("Simplify %s in the %s", pick(simplifications, 11), pick(components, 12))
	default:
		return fmt.Sprintf("Remove dead code from the %s", pick(components, 13))
	}
}
