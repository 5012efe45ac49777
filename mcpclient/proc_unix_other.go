//go:build unix && !linux

package mcpclient

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setParentDeathSignal does nothing: only Linux has a parent-death signal
// here. A server outlives a killed playground unless it exits on stdin EOF.
func setParentDeathSignal(*syscall.SysProcAttr) {}

// startProcess starts cmd.
func startProcess(cmd *exec.Cmd) error { return cmd.Start() }

// awaitExit reports that waiting without reaping is not available, so the
// caller reaps first.
func awaitExit(*os.Process) error { return errors.ErrUnsupported }
