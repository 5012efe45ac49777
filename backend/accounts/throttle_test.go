package accounts

import (
	"fmt"
	"testing"
	"time"
)

// TestSignInThrottleBound floods the throttle with failures under new
// names and addresses, as unknown names at the sign-in form do: it stays
// within signInMaxTracked, and the name under attack stays throttled.
func TestSignInThrottleBound(t *testing.T) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	th := newSignInThrottle(func() time.Time { return now })
	for range signInFreeFailures {
		th.failed("ada", "192.0.2.1")
	}
	if th.wait("ada", "192.0.2.2") == 0 {
		t.Fatal("ada is not throttled after the free failures")
	}
	for i := range 2 * signInMaxTracked {
		th.failed(fmt.Sprintf("guess%d", i), fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
		if n := len(th.failures); n > signInMaxTracked {
			t.Fatalf("after %d failures the throttle tracks %d counts, more than %d", i+1, n, signInMaxTracked)
		}
	}
	if th.wait("ada", "192.0.2.2") == 0 {
		t.Error("a flood of failures under other names lifted ada's throttle")
	}
}

// TestSignInThrottleBoundThrottled floods the throttle with names that
// all wait: it still stays within signInMaxTracked, forgetting the oldest.
func TestSignInThrottleBoundThrottled(t *testing.T) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	th := newSignInThrottle(func() time.Time { return now })
	for i := range signInMaxTracked {
		now = now.Add(time.Millisecond)
		for range signInFreeFailures {
			th.failed(fmt.Sprintf("guess%d", i), "192.0.2.1")
		}
		if n := len(th.failures); n > signInMaxTracked {
			t.Fatalf("after %d throttled names the throttle tracks %d counts, more than %d", i+1, n, signInMaxTracked)
		}
	}
	if th.wait(fmt.Sprintf("guess%d", signInMaxTracked-1), "198.51.100.1") == 0 {
		t.Error("the newest throttled name was forgotten")
	}
}

// TestRoundUp: the wait a refused sign-in names is never shorter than the
// real one.
func TestRoundUp(t *testing.T) {
	for _, tt := range []struct{ in, want time.Duration }{
		{0, time.Second}, {time.Millisecond, time.Second}, {time.Second, time.Second},
		{1400 * time.Millisecond, 2 * time.Second}, {15 * time.Minute, 15 * time.Minute},
	} {
		if got := roundUp(tt.in); got != tt.want {
			t.Errorf("roundUp(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
