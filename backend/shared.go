package backend

import "sync"

// Shared holds what the viewers of one event work out from it alike (the
// fragment its frames render to for one view, say), so that each value is
// worked out once however many viewers ask for it. It lives as long as the
// event: no viewer can ask once every one has let go of the event. Keys
// must be comparable. A nil Shared shares nothing: Do always computes. It
// is safe for concurrent use.
type Shared struct {
	mu     sync.Mutex
	values map[any]*sharedValue
}

type sharedValue struct {
	once sync.Once
	v    any
}

// Do returns the value of key: the first caller's compute result, which
// later and concurrent callers wait for and get too.
func (s *Shared) Do(key any, compute func() any) any {
	if s == nil {
		return compute()
	}
	s.mu.Lock()
	if s.values == nil {
		s.values = map[any]*sharedValue{}
	}
	v := s.values[key]
	if v == nil {
		v = &sharedValue{}
		s.values[key] = v
	}
	s.mu.Unlock()
	v.once.Do(func() { v.v = compute() })
	return v.v
}
