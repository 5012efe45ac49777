//go:build unix

package mcpclient

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcAttr puts the server in a process group of its own, so that
// stopping it also stops what it started (npx, shell wrappers), and, where
// the platform has one, sets the signal it gets when the playground dies
// (see setParentDeathSignal).
func setProcAttr(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(attr)
	cmd.SysProcAttr = attr
}

// signalGroup sends sig to the process group that p leads, and to p itself
// in case it has moved to another group. The caller makes sure p has not
// been reaped, or that its group still has members: otherwise the ids may
// belong to other processes by now.
func signalGroup(p *os.Process, sig syscall.Signal) {
	_ = syscall.Kill(-p.Pid, sig)
	_ = p.Signal(sig)
}

// terminate sends SIGTERM to the server's process group.
func terminate(p *os.Process) { signalGroup(p, syscall.SIGTERM) }

// kill sends SIGKILL to the server's process group.
func kill(p *os.Process) { signalGroup(p, syscall.SIGKILL) }
