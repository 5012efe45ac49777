//go:build !unix

package mcpclient

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where process groups are not available.
func setProcessGroup(*exec.Cmd) {}

// terminate asks the server to stop, where the platform allows it.
func terminate(cmd *exec.Cmd) { _ = cmd.Process.Signal(os.Interrupt) }

// kill stops the server process.
func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
