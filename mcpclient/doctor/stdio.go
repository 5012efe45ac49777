package doctor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// launchers are the commands that start packaged servers, and what
// provides them.
var launchers = []struct{ command, provider, kind string }{
	{"npx", "Node.js (npm)", "an npm package"},
	{"uvx", "uv", "a Python package"},
}

// diagnoseStdio explains a stdio server that did not start or answer: a
// command not found (naming the PATH searched and whether npx and uvx are
// there), a process that exited (quoting its stderr), or the other era.
func diagnoseStdio(d *Diagnosis, cfg mcpclient.StdioConfig, era mcpclient.Era, err error) {
	d.find("Command", strings.TrimSpace(cfg.Command+" "+strings.Join(cfg.Args, " ")))
	var exit *mcpclient.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound) || strings.Contains(err.Error(), "executable file not found"):
		commandNotFound(d, cfg)
	case errors.Is(err, os.ErrNotExist), errors.Is(err, os.ErrPermission):
		d.Summary = fmt.Sprintf("The command %q could not be started: %v.", cfg.Command, err)
		d.suggest("Check that the file exists and is executable (chmod +x), and that the working directory is right.", nil)
	case errors.As(err, &exit):
		exited(d, exit)
	case eraMismatch(d, era, err):
	case strings.Contains(err.Error(), "closed its stdout"):
		d.Summary = "The server process closed its standard output before it answered."
		d.find("Process", err.Error())
		d.suggest("A stdio server must write only JSON-RPC messages to stdout; run the command in a terminal to see what it prints.", nil)
	case isTimeout(err):
		d.Summary = "The server process started but did not answer in time."
		d.find("Handshake", err.Error())
		timeoutEras(d, era)
		d.suggest("Run the command in a terminal: a server waiting for input on a prompt, or still downloading a package, answers late.", nil)
	}
}

// commandNotFound names the command, the PATH searched and whether npx and
// uvx are available.
func commandNotFound(d *Diagnosis, cfg mcpclient.StdioConfig) {
	d.Summary = fmt.Sprintf("The command %q was not found: no executable of that name is on the PATH.", cfg.Command)
	for _, kv := range cfg.Env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			d.find("Server's PATH", p)
		}
	}
	d.find("PATH", os.Getenv("PATH"))
	base := filepath.Base(cfg.Command)
	for _, l := range launchers {
		if base == l.command {
			d.suggest(fmt.Sprintf("%s comes with %s: install it on the machine that runs the playground, or give the full path of %s.", l.command, l.provider, l.command), nil)
			return
		}
	}
	d.suggest(fmt.Sprintf("Install %s, or give its full path (such as /usr/local/bin/%s).", cfg.Command, base), nil)
	for _, l := range launchers {
		where := l.command + " is not on the PATH: install " + l.provider
		if p, err := mcpclient.LookCommand(l.command, cfg.Env); err == nil {
			where = l.command + " is at " + p
		}
		d.suggest(fmt.Sprintf("If the server is %s, start it with %s (%s).", l.kind, l.command, where), nil)
	}
}

// exited quotes the exit status and the stderr lines that matter, and
// names the line that says what went wrong (else the last one).
func exited(d *Diagnosis, exit *mcpclient.ExitError) {
	d.Summary = fmt.Sprintf("The server process exited (%s) before it answered.", exit.Status)
	d.find("Exit status", exit.Status)
	if len(exit.Stderr) == 0 {
		d.find("Stderr", "nothing")
		d.suggest("Run the command in a terminal to see why it stops; it may need arguments or environment variables.", nil)
		return
	}
	for _, line := range exit.Stderr {
		d.find("Stderr", line)
	}
	if exit.Fault != "" {
		d.Summary += " Its stderr says: " + exit.Fault
	} else {
		d.Summary += " Its last words on stderr: " + exit.Stderr[len(exit.Stderr)-1]
	}
	d.suggest("Read the stderr lines above: they usually name the missing argument, setting, file or package.", nil)
}
