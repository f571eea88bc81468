package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perfpages/perfpages/generator"
	"github.com/perfpages/perfpages/generator/config"
)

// baseURLEnv overrides site.base_url when -base-url is not given: CI sets
// it once for every command (the Pages URL is known only in the workflow).
const baseURLEnv = "PERFPAGES_BASE_URL"

// siteFlags are the flags of the commands that read a site: the config
// file and what overrides it.
type siteFlags struct {
	config  *string
	baseURL *string
	cache   *string // nil for commands that write no site
}

func addSiteFlags(fs *flag.FlagSet, withCache bool) *siteFlags {
	f := &siteFlags{
		config:  fs.String("config", "", "config file (default: perfpages.toml here, else the embedded demo site)"),
		baseURL: fs.String("base-url", "", "the site's URL, overriding site.base_url and $"+baseURLEnv+" (e.g. https://owner.github.io/repo/)"),
	}
	if withCache {
		f.cache = fs.String("cache", "", `analysis cache folder kept between builds, overriding site.cache ("off" for none; default beside the output)`)
	}
	return f
}

// open opens the site and applies the overrides. When it falls back to
// the demo site it says so on stderr, so that a build in the wrong folder
// is not mistaken for one of the user's site.
func (f *siteFlags) open(stderr io.Writer) (*generator.Site, error) {
	s, err := f.reopen()
	if err != nil {
		return nil, err
	}
	if s.IsDemo {
		wd, _ := os.Getwd()
		say(stderr, "perfpages: note: ", fmt.Sprintf("no %s in %s: using the embedded demo site (give -config F for yours)", config.FileName, wd))
	}
	return s, nil
}

// reopen is open without the note, for serve's rebuilds.
func (f *siteFlags) reopen() (*generator.Site, error) {
	s, err := generator.Open(*f.config)
	if err != nil {
		return nil, err
	}
	if u := *f.baseURL; u != "" {
		if err := s.Config.SetBaseURL(u); err != nil {
			return nil, fmt.Errorf("-base-url %w", err)
		}
	} else if u := os.Getenv(baseURLEnv); u != "" {
		if err := s.Config.SetBaseURL(u); err != nil {
			return nil, fmt.Errorf("$%s %w", baseURLEnv, err)
		}
	}
	if f.cache != nil && *f.cache != "" {
		c := *f.cache
		if c != "off" {
			if c, err = filepath.Abs(c); err != nil {
				return nil, fmt.Errorf("-cache: %w", err)
			}
		}
		s.Config.Site.Cache = c
	}
	return s, nil
}
