//go:build !linux

package main

import "io"

// polledStdin returns stdin and false: re-opening a pipe in non-blocking
// mode without changing the description the parent shares needs Linux's
// /proc/self/fd (elsewhere /dev/fd duplicates the descriptor).
func polledStdin(stdin io.Reader) (io.Reader, bool) { return stdin, false }
