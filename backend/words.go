package backend

import (
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// Count says n of noun for people: "1 change", "0 changes", "2 changes".
// noun takes an s in the plural.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// FormatDuration shows a duration for people, the same way on every page
// and in every command: "850 µs" below a millisecond, "9.7 ms" below a
// second, "17.211 s" below a minute, then "2m5s". It is "" for d <= 0.
func FormatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	case d < time.Minute:
		return fmt.Sprintf("%.3f s", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// Cut shortens s to at most n bytes (on a rune boundary), marking the cut.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
