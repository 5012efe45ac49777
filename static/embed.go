// Package static holds the dashboard's own CSS and JavaScript and, under
// vendor/, the third-party front-end files that the build copies from npm.
package static

import "embed"

// FS holds every static file, served under /static/.
//
//go:embed *.css *.js all:vendor
var FS embed.FS
