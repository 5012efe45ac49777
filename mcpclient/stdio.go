package mcpclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// StdioConfig describes a server run as a child process that speaks
// newline-delimited JSON-RPC on its stdin and stdout.
type StdioConfig struct {
	Command string
	Args    []string
	Env     []string // extra KEY=VALUE entries appended to os.Environ()
	Dir     string   // working directory; "" means the current one
}

const (
	// stopGrace is how long Close waits after closing stdin, and again after
	// SIGTERM, before escalating.
	stopGrace = 2 * time.Second
	// drainGrace is how long the readers get to consume what a process wrote
	// before it ended.
	drainGrace = 500 * time.Millisecond
)

// ConnectStdio starts the server process and runs the handshake. ctx bounds
// only the start and the handshake; the process lives until Close or until
// it exits. Close closes the server's stdin, waits up to 2s for it to exit,
// then sends SIGTERM, waits 2s more, then SIGKILL, and reaps it. If the
// process exits on its own, Done is closed and Err, an *ExitError, reports
// the exit status and the stderr lines that name the fault and end it.
//
// On Unix the server leads a process group of its own, and every signal
// goes to the whole group; once the server has exited, whether on its own
// or stopped by Close, what is left of its group gets SIGKILL, so nothing
// it started outlives it. A process that leaves the group (setsid) is out
// of reach. On Linux the kernel also sends the server SIGKILL when the
// playground dies, even by SIGKILL (a parent-death signal); but then no one
// is left to signal the group: the server's other descendants see only the
// pipes to the playground close (end of input, broken output), and those
// that ignore that outlive it.
func ConnectStdio(ctx context.Context, cfg StdioConfig, opts Options) (*Client, error) {
	c := newClient(opts)
	t := &stdioTransport{
		peer:       c,
		stdoutDone: make(chan struct{}),
		stderrDone: make(chan struct{}),
		exited:     make(chan struct{}),
	}
	c.t = t
	if err := t.start(cfg); err != nil {
		c.cancel()
		return nil, err
	}
	return c.handshake(ctx)
}

// stdioTransport owns a server process and its three pipes.
type stdioTransport struct {
	peer  peer
	cmd   *exec.Cmd
	stdin *os.File // our write end

	stdout, stderr *os.File // our read ends

	writeMu sync.Mutex
	wg      sync.WaitGroup // readers, waiter and supervisor

	sigMu  sync.Mutex // held while signalling or reaping the process
	reaped bool       // the process was waited for: its pid may be reused

	stdoutDone chan struct{} // stdout reader returned
	stderrDone chan struct{} // stderr reader returned
	exited     chan struct{} // process reaped
	readErr    error         // why stdout reading stopped early; set before stdoutDone closes

	quote stderrQuote // the stderr lines an error quotes
}

func (t *stdioTransport) start(cfg StdioConfig) error {
	if cfg.Command == "" {
		return errors.New("start: no command given")
	}
	if cfg.Dir != "" {
		if _, err := os.Stat(cfg.Dir); err != nil {
			return fmt.Errorf("start %q: working directory: %w", cfg.Command, err)
		}
	}
	program, err := LookCommand(cfg.Command, cfg.Env)
	if err != nil {
		return fmt.Errorf("start %q: %w", cfg.Command, err)
	}
	cmd := exec.Command(program, cfg.Args...)
	cmd.Args[0] = cfg.Command
	cmd.Env = append(os.Environ(), cfg.Env...)
	cmd.Dir = cfg.Dir
	setProcAttr(cmd)
	inR, inW, err1 := os.Pipe()
	outR, outW, err2 := os.Pipe()
	errR, errW, err3 := os.Pipe()
	err = errors.Join(err1, err2, err3)
	if err == nil {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
		err = startProcess(cmd)
	}
	closeFiles(inR, outW, errW) // the child holds its own copies
	if err != nil {
		closeFiles(inW, outR, errR)
		var execErr *exec.Error
		if errors.As(err, &execErr) {
			err = execErr.Err
		}
		return fmt.Errorf("start %q: %w", cfg.Command, err)
	}
	t.cmd, t.stdin, t.stdout, t.stderr = cmd, inW, outR, errR
	t.wg.Add(4)
	go t.readStdout()
	go t.readStderr()
	go t.wait()
	go t.supervise()
	return nil
}

// closeFiles closes the non-nil files.
func closeFiles(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

// send writes m as one line to the server's stdin. A deadline on ctx bounds
// a write blocked on a full pipe.
func (t *stdioTransport) send(ctx context.Context, m outbound) error {
	line := make([]byte, len(m.body)+1)
	copy(line, m.body)
	line[len(m.body)] = '\n'
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	t.peer.tap(Outbound, KindMessage, m.body, nil)
	deadline, _ := ctx.Deadline()
	_ = t.stdin.SetWriteDeadline(deadline) // zero means none
	if _, err := t.stdin.Write(line); err != nil {
		// The write fails when the process has gone. Its exit status and
		// stderr say more than "broken pipe", so give the supervisor time to
		// end the connection with them; callers then report that cause.
		waitFor(t.peer.Done(), 2*drainGrace)
		return fmt.Errorf("write to server stdin: %w", err)
	}
	return nil
}

// readStdout reads one message per line until stdout ends. Empty lines are
// skipped. An oversized line is recorded shortened; when it is plainly a
// response, the call it answers fails and reading goes on, else reading
// stops, which ends the connection.
func (t *stdioTransport) readStdout() {
	defer t.wg.Done()
	defer close(t.stdoutDone)
	r := bufio.NewReaderSize(t.stdout, 64<<10)
	for {
		line, err := readLine(r, t.peer.maxFrameSize())
		var tooLarge *frameTooLargeError
		if errors.As(err, &tooLarge) {
			t.peer.tap(Inbound, KindParseError, tooLarge.Head, nil)
			if id, ok := tooLarge.responseID(); ok {
				t.peer.requestFailed(id, err)
				continue
			}
			t.readErr = err
			return
		}
		if err != nil {
			return
		}
		if len(line) > 0 {
			t.peer.receive(line, nil)
		}
	}
}

// readStderr records stderr line by line and keeps the lines worth quoting
// in error messages. Oversized lines are recorded shortened.
func (t *stdioTransport) readStderr() {
	defer t.wg.Done()
	defer close(t.stderrDone)
	r := bufio.NewReaderSize(t.stderr, 4<<10) // log lines; readLine gathers a longer one
	for {
		line, err := readLine(r, t.peer.maxFrameSize())
		var tooLarge *frameTooLargeError
		if errors.As(err, &tooLarge) {
			line, err = tooLarge.Head, nil
		}
		if err != nil {
			return
		}
		t.peer.tap(Stderr, KindLog, line, nil)
		t.quote.add(string(line))
	}
}
