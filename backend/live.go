package backend

import "context"

// PageQuery selects a page of a session's frames, newest last: the Limit
// frames before BeforeID (0: the newest Limit frames), those Filter keeps,
// with bodies cut to BodyPreview bytes.
type PageQuery struct {
	SessionID   int64
	BeforeID    int64
	Limit       int
	BodyPreview int
	Filter      FrameFilter
}

// FramePage reads a page of a session's frames. older says whether frames
// that the filter keeps precede the page.
func FramePage(ctx context.Context, frames FrameStore, q PageQuery) (page []Frame, older bool, err error) {
	page, err = frames.ListFrames(ctx, FrameQuery{SessionID: q.SessionID, BeforeID: q.BeforeID, Newest: true,
		Limit: q.Limit + 1, BodyPreview: q.BodyPreview, Filter: q.Filter})
	if err != nil {
		return nil, false, err
	}
	if len(page) > q.Limit {
		return page[1:], true, nil
	}
	return page, false, nil
}

// WatchQuery says whose live traffic a viewer watches and what it already
// shows: the frames up to AfterID (0: none), those Filter keeps. A backlog
// holds at most Limit frames, with bodies cut to BodyPreview bytes.
type WatchQuery struct {
	SessionID   int64
	AfterID     int64
	Limit       int
	BodyPreview int
	Filter      FrameFilter
}

// Watch is a viewer's start on a session's live traffic: the frames it
// lacks and the subscription to every batch committed after them. The
// subscription begins before the backlog is read, so no frame falls
// between the two; a frame may come in both, and the viewer skips those
// at or below the newest it shows.
type Watch struct {
	// Backlog holds the frames after AfterID, oldest first. When more than
	// Limit frames followed it, Reset is set and Backlog holds the newest
	// page in place of what the viewer shows, Older saying whether frames
	// precede that page.
	Backlog []Frame
	Reset   bool
	Older   bool
	// Sub delivers what is committed next; the caller owns it and must
	// close it.
	Sub *Subscription
}

// WatchSession subscribes to a session's live traffic and reads the
// backlog the viewer lacks; see Watch.
func WatchSession(ctx context.Context, hub Subscriber, frames FrameStore, q WatchQuery) (Watch, error) {
	w := Watch{Sub: hub.Subscribe(q.SessionID)}
	var err error
	w.Backlog, err = frames.ListFrames(ctx, FrameQuery{SessionID: q.SessionID, AfterID: q.AfterID,
		Limit: q.Limit + 1, BodyPreview: q.BodyPreview, Filter: q.Filter})
	if err == nil && len(w.Backlog) > q.Limit {
		w.Reset = true
		w.Backlog, w.Older, err = FramePage(ctx, frames, PageQuery{SessionID: q.SessionID, Limit: q.Limit,
			BodyPreview: q.BodyPreview, Filter: q.Filter})
	}
	if err != nil {
		w.Sub.Close()
		return Watch{}, err
	}
	return w, nil
}
