package oauth

// Passed reports whether a step went as it should: an answer came, every
// check holds, and, for an exchange without checks, it was not refused
// (HTTP 400 and above).
func (s Step) Passed() bool {
	if s.Err != "" {
		return false
	}
	for _, c := range s.Checks {
		if !c.OK {
			return false
		}
	}
	return len(s.Checks) > 0 || s.Status < 400
}

// FailedStep returns the step where a failed flow went wrong: its last
// step of the sign-in itself (not a re-run) that did not pass; false when
// the flow did not fail or all its steps passed (the failure came after
// them, such as the browser never coming back).
func (f Flow) FailedStep() (Step, bool) {
	if f.Status != FlowFailed {
		return Step{}, false
	}
	for i := len(f.Steps) - 1; i >= 0; i-- {
		if s := f.Steps[i]; s.RerunOf == 0 && !s.Passed() {
			return s, true
		}
	}
	return Step{}, false
}
