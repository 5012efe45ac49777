package mcpclient

import (
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// setParentDeathSignal makes the kernel SIGKILL the server when the thread
// that started it dies (prctl PR_SET_PDEATHSIG). startProcess starts every
// server from a thread that lives as long as the playground, so the signal
// comes when the playground dies, however it dies.
func setParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// startRequest asks the starter thread to start cmd and send the outcome
// of cmd.Start to done.
type startRequest struct {
	cmd  *exec.Cmd
	done chan<- error
}

var (
	startOnce     sync.Once
	startRequests chan startRequest
)

// startProcess starts cmd from the starter thread: one goroutine, locked to
// its OS thread, that never returns. The parent-death signal fires when the
// thread that forked the child exits, not the process (go.dev/issue/27505),
// and Go ends a thread when a goroutine locked to it returns; starting from
// an arbitrary goroutine would kill the server with some unrelated
// goroutine. The starter goroutine is owned by the process and stops with
// it; starts are serialised, and each takes about a millisecond.
func startProcess(cmd *exec.Cmd) error {
	startOnce.Do(func() {
		startRequests = make(chan startRequest)
		go runStarter(startRequests)
	})
	done := make(chan error, 1)
	startRequests <- startRequest{cmd: cmd, done: done}
	return <-done
}

func runStarter(requests <-chan startRequest) {
	runtime.LockOSThread() // never unlocked: the thread must not end
	for r := range requests {
		r.done <- r.cmd.Start()
	}
}

// waitid(2) arguments that package syscall does not name.
const (
	pPID    = 1         // P_PID
	wNOWAIT = 0x1000000 // WNOWAIT
)

// awaitExit blocks until process p has exited, but leaves it unreaped: a
// zombie whose pid, and so its process group id, no other process can take
// until it is waited for.
func awaitExit(p *os.Process) error {
	var info [128]byte // siginfo_t, unread
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(p.Pid),
			uintptr(unsafe.Pointer(&info)), syscall.WEXITED|wNOWAIT, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return os.NewSyscallError("waitid", errno)
		}
		return nil
	}
}
