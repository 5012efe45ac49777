//go:build !unix

package mcpclient

import (
	"errors"
	"os"
	"os/exec"
)

// setProcAttr does nothing where process groups are not available.
func setProcAttr(*exec.Cmd) {}

// startProcess starts cmd.
func startProcess(cmd *exec.Cmd) error { return cmd.Start() }

// awaitExit reports that waiting without reaping is not available, so the
// caller reaps first.
func awaitExit(*os.Process) error { return errors.ErrUnsupported }

// terminate asks the server to stop, where the platform allows it.
func terminate(p *os.Process) { _ = p.Signal(os.Interrupt) }

// kill stops the server process.
func kill(p *os.Process) { _ = p.Kill() }
