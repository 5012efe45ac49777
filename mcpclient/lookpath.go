package mcpclient

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// LookCommand finds the program a stdio server's command names, as
// ConnectStdio starts it: a command holding a slash is returned as it is;
// a bare name is looked up first in the PATH that env (KEY=VALUE entries,
// the last PATH winning) gives the server, then in this process's PATH.
// Relative PATH entries are skipped. A name found on neither is
// exec.ErrNotFound, or, when env sets PATH, an error saying both were searched.
func LookCommand(command string, env []string) (string, error) {
	if strings.ContainsRune(command, '/') {
		return command, nil
	}
	serverPath := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			serverPath = v
		}
	}
	for _, list := range []string{serverPath, os.Getenv("PATH")} {
		for _, dir := range filepath.SplitList(list) {
			if !filepath.IsAbs(dir) {
				continue
			}
			p := filepath.Join(dir, command)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
				return p, nil
			}
		}
	}
	if serverPath != "" {
		return "", errNotFoundEither
	}
	return "", exec.ErrNotFound
}

// errNotFoundEither is LookCommand's error for a bare name found on
// neither PATH when the server has its own.
var errNotFoundEither = errors.New("executable file not found in the server's PATH nor in $PATH")
