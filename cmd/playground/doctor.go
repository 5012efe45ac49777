package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/doctor"
)

// commandLine is how a CLI command was invoked, to print the command line
// that tries a connection doctor's suggestion.
type commandLine struct {
	command string        // "call" or "run"
	args    []string      // the arguments after the command, as given
	fs      *flag.FlagSet // the command's flags, parsed from args
	// interspersed: flags may follow the positional arguments (run's
	// FILE), not only precede them (call's METHOD).
	interspersed bool
}

// withOAuth returns the command line with --oauth added, and whether the
// command can sign in (call can; run cannot).
func (l commandLine) withOAuth(redact func(string) string) (string, bool) {
	if l.command != "call" || l.fs.Lookup("oauth") == nil || l.fs.Lookup("oauth").Value.String() == "true" {
		return "", false
	}
	words := []string{"playground", l.command, "--oauth"}
	for _, a := range l.args {
		if a != "--fix" && a != "-fix" {
			words = append(words, a)
		}
	}
	for i, w := range words {
		words[i] = shellQuote(redact(w))
	}
	return strings.Join(words, " "), true
}

// with returns the command line with change made to its target flags
// (--url or --sse, its URL's path, --era), without --fix, and whether
// the CLI can express change (it has no flag to skip TLS verification).
// redact hides secret values (headers) in what it prints.
func (l commandLine) with(change doctor.Change, redact func(string) string) (string, bool) {
	var kept, target []string
	era := string(change.Era)
	i := 0
	for i < len(l.args) {
		a := l.args[i]
		if a == "--" {
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			if !l.interspersed {
				break
			}
			kept = append(kept, a)
			i++
			continue
		}
		name, value, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		n := 1
		if f := l.fs.Lookup(name); !inline && f != nil && !isBoolFlag(f) && i+1 < len(l.args) {
			value, n = l.args[i+1], 2
		}
		switch name {
		case "url", "sse":
			if change.Transport == "sse" || (change.Transport == "" && name == "sse") {
				name = "sse"
			} else {
				name = "url"
			}
			if change.Path != "" {
				value = doctor.WithPath(value, change.Path)
			}
			target = []string{"--" + name, value}
		case "era":
			if era == "" {
				era = value
			}
		case "fix":
		case "insecure":
			if !change.SkipTLSVerify {
				kept = append(kept, l.args[i:i+n]...)
			}
		default:
			kept = append(kept, l.args[i:i+n]...)
		}
		i += n
	}
	if target == nil && (change.Transport != "" || change.Path != "" || change.SkipTLSVerify) {
		return "", false // a server named otherwise (run --server) keeps its URL
	}
	words := append([]string{"playground", l.command}, target...)
	if era != "" {
		words = append(words, "--era", era)
	}
	if change.SkipTLSVerify {
		words = append(words, "--insecure")
	}
	words = append(append(words, kept...), l.args[i:]...)
	for i, w := range words {
		words[i] = shellQuote(redact(w))
	}
	return strings.Join(words, " "), true
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// shellQuote quotes w for a POSIX shell when it needs it.
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,@%+") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// printDiagnosis writes d to w: the summary, what was checked, and each
// suggestion with the command line that tries it, when there is one. It
// returns the first suggestion the CLI can try, if any, and its line.
func printDiagnosis(w io.Writer, d backend.Diagnosis, line commandLine, redact func(string) string) (fix *doctor.Change, fixLine string) {
	fmt.Fprintf(w, "\nDiagnosis: %s\n", d.Summary)
	if len(d.Findings) > 0 {
		fmt.Fprintln(w, "Checked:")
		for _, f := range d.Findings {
			fmt.Fprintf(w, "  %s: %s\n", f.Check, f.Result)
		}
	}
	if len(d.Suggestions) > 0 {
		fmt.Fprintln(w, "Try:")
	}
	for _, s := range d.Suggestions {
		fmt.Fprintf(w, "  - %s\n", s.Text)
		if s.SignIn {
			if cmd, ok := line.withOAuth(redact); ok {
				fmt.Fprintf(w, "      %s\n", cmd)
			}
		}
		if s.Change == nil {
			continue
		}
		if cmd, ok := line.with(*s.Change, redact); ok {
			fmt.Fprintf(w, "      %s\n", cmd)
			if fix == nil {
				fix, fixLine = s.Change, cmd
			}
		}
	}
	return fix, fixLine
}

// diagnoseAndFix prints the diagnosis of connectErr, the error of dialing
// srv with opts (and creds, which the retry keeps; nil for none), to
// stderr, and with fix retries once (retryFixed).
func diagnoseAndFix(ctx context.Context, srv backend.Server, creds mcpclient.Credentials, opts mcpclient.Options, connectErr error, line commandLine, fix bool, stderr io.Writer) (*mcpclient.Client, error) {
	d := backend.Diagnose(ctx, srv, connectErr)
	return retryFixed(stderr, d, line, backend.NewRedactor(srv).Text, fix, connectErr, func(change doctor.Change) (*mcpclient.Client, error) {
		fixed, err := srv.WithFix(change)
		if err != nil {
			return nil, err
		}
		opts.Era = mcpclient.Era(fixed.Era)
		target := fixed.Target()
		target.HTTP.Credentials = creds
		return mcpclient.Dial(ctx, target, opts)
	})
}

// retryFixed prints d, the diagnosis of connectErr, to w (printDiagnosis);
// with fix it calls retry once with the first suggestion the CLI can
// try, saying what it changed, and returns what retry returns. Without
// fix, or with nothing to try, it returns connectErr.
func retryFixed[T any](w io.Writer, d backend.Diagnosis, line commandLine, redact func(string) string, fix bool, connectErr error, retry func(doctor.Change) (T, error)) (T, error) {
	var zero T
	change, changed := printDiagnosis(w, d, line, redact)
	switch {
	case change == nil:
		return zero, connectErr
	case !fix:
		fmt.Fprintln(w, "Run again with --fix to try the first of these.")
		return zero, connectErr
	}
	label := change.Label()
	fmt.Fprintf(w, "\n--fix: %s; trying %s\n", strings.ToLower(label[:1])+label[1:], changed)
	got, err := retry(*change)
	if err != nil {
		return zero, fmt.Errorf("still failing after --fix (%s): %w", label, err)
	}
	fmt.Fprintf(w, "--fix: connected. To connect this way next time: %s\n", changed)
	return got, nil
}
