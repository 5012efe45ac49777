//go:build unix

package mcpclient

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the server in a process group of its own, so that
// stopping it also stops what it started (npx, shell wrappers).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminate sends SIGTERM to the server's process group.
func terminate(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

// kill sends SIGKILL to the server's process group.
func kill(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
