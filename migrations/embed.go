// Package migrations holds the numbered SQL migrations of the playground
// database. Files are named NNNN_name.sql and are applied in order, each in
// its own transaction. An applied migration is never edited: add a new one.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
