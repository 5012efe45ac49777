package mcpclient

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

const (
	// stderrTailLines is how many of the last stderr lines are quoted.
	stderrTailLines = 3
	// stderrFaultLines is how many lines naming a fault are quoted: the
	// first ones seen and the latest ones, half each.
	stderrFaultLines = 4
	// stderrLineLen bounds one quoted line.
	stderrLineLen = 200
)

// faultPattern matches a stderr line that names what went wrong: an error
// or exception line ("Error: Cannot find module …", "ModuleNotFoundError:
// …", "java.lang.IllegalStateException"), a Go panic, a fatal message, a
// shell's "not found", and the usual system errors (ENOENT, EACCES, …).
var faultPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(\w*(error|exception)\b|^panic:|\bfatal\b|\bnot found\b|no such file|permission denied|\bcannot\b|\bcan't\b|\bfailed\b|address already in use)|(?-i:\bE[A-Z]{4,}\b)`)
})

// stackFrame matches a line of a stack trace (JavaScript, Java, Python),
// which names where, not what: it is never taken for a fault line.
var stackFrame = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(at |File ")`)
})

// namesFault reports whether line names what went wrong.
func namesFault(line string) bool {
	return faultPattern().MatchString(line) && !stackFrame().MatchString(line)
}

// tracebackHeader is the line that opens a Python traceback: it says that
// a fault follows, so it is quoted, but it does not name the fault.
const tracebackHeader = "Traceback (most recent call last)"

// stderrLine is a stderr line and its place in the stream.
type stderrLine struct {
	seq  int
	text string
}

// stderrQuote keeps, in bounded memory, the stderr lines worth quoting when
// a server process fails: the first and the latest lines that name a fault
// and the last few lines. It is safe for concurrent use.
type stderrQuote struct {
	mu          sync.Mutex
	seq         int
	firstFaults []stderrLine // the first stderrFaultLines/2 fault lines
	lastFaults  []stderrLine // the latest stderrFaultLines/2 fault lines after those
	tail        []stderrLine // the last stderrTailLines lines
}

// add takes one line of stderr; blank lines are skipped.
func (q *stderrQuote) add(line string) {
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	if len(line) > stderrLineLen {
		line = truncateUTF8(line, stderrLineLen) + "…"
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.seq++
	l := stderrLine{seq: q.seq, text: line}
	if namesFault(line) || strings.HasPrefix(line, tracebackHeader) {
		if len(q.firstFaults) < stderrFaultLines/2 {
			q.firstFaults = append(q.firstFaults, l)
		} else {
			q.lastFaults = keepLast(append(q.lastFaults, l), stderrFaultLines/2)
		}
	}
	q.tail = keepLast(append(q.tail, l), stderrTailLines)
}

// lines returns the quoted lines in stderr order, each once, and the line
// that names the fault: the latest fault line, or "" when none does.
func (q *stderrQuote) lines() (quoted []string, fault string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	picked := slices.Concat(q.firstFaults, q.lastFaults, q.tail)
	slices.SortFunc(picked, func(a, b stderrLine) int { return a.seq - b.seq })
	picked = slices.CompactFunc(picked, func(a, b stderrLine) bool { return a.seq == b.seq })
	for _, l := range picked {
		quoted = append(quoted, l.text)
		if namesFault(l.text) {
			fault = l.text
		}
	}
	return quoted, fault
}

func keepLast(lines []stderrLine, n int) []stderrLine {
	if len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}

// truncateUTF8 returns s cut to at most n bytes, not inside a rune.
func truncateUTF8(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
