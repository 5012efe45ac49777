package backend

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// MCP resource types that the layers above show, named here like those in
// mcptypes.go.
type (
	Resource         = mcpclient.Resource
	ResourceTemplate = mcpclient.ResourceTemplate
)

// Notification methods the resource subscriptions follow.
const (
	methodResourceUpdated = "notifications/resources/updated"
	methodListenAcked     = "notifications/subscriptions/acknowledged"
)

// listenAckTimeout bounds how long Subscribe waits, in the modern era, for
// the server to acknowledge the subscriptions/listen stream it opened.
const listenAckTimeout = 10 * time.Second

// ResourceUpdate says that a subscribed resource changed: the server sent
// notifications/resources/updated for URI at At. It is published on the
// hub as an Event with Resource set.
type ResourceUpdate struct {
	URI string
	At  time.Time
}

// ResourceSubscriptions is what a live session knows of its resource
// subscriptions: whether the server offers them (resources.subscribe),
// which URIs are subscribed and when each URI was last said to change.
type ResourceSubscriptions struct {
	Offered    bool // the server declared the resources capability
	Supported  bool
	Subscribed map[string]bool
	Updated    map[string]time.Time
}

// resourceSubs tracks one session's resource subscriptions. In the legacy
// era each URI is subscribed on its own (resources/subscribe); in the
// modern era one subscriptions/listen stream carries all of them, and a
// change of the set replaces the stream.
type resourceSubs struct {
	change     sync.Mutex // held by one Subscribe or Unsubscribe at a time
	mu         sync.Mutex
	subscribed map[string]bool
	updated    map[string]time.Time
	listen     *listenStream                            // the running listen stream, nil when none
	acks       chan mcpclient.NotificationSubscriptions // the streams' acknowledgements, newest kept
	wg         sync.WaitGroup                           // the listen goroutines
	stopped    bool                                     // set by stop: no stream starts after it
}

// listenStream is one subscriptions/listen request held open.
type listenStream struct {
	cancel context.CancelFunc // ends it
}

// end ends the stream; s may be nil.
func (s *listenStream) end() {
	if s != nil {
		s.cancel()
	}
}

// notified records a resources/updated notification and reports the
// update; a listen acknowledgement goes to the Subscribe that waits for
// it. It runs on the client's reader goroutine and never blocks.
func (r *resourceSubs) notified(n mcpclient.Notification) (ResourceUpdate, bool) {
	switch n.Method {
	case methodResourceUpdated:
		var params mcpclient.ResourceUpdated
		if json.Unmarshal(n.Params, &params) != nil || params.URI == "" {
			return ResourceUpdate{}, false
		}
		u := ResourceUpdate{URI: params.URI, At: time.Now()}
		r.mu.Lock()
		if r.updated == nil {
			r.updated = map[string]time.Time{}
		}
		r.updated[u.URI] = u.At
		r.mu.Unlock()
		return u, true
	case methodListenAcked:
		var params struct {
			Notifications mcpclient.NotificationSubscriptions `json:"notifications"`
		}
		if json.Unmarshal(n.Params, &params) == nil {
			r.mu.Lock()
			acks := r.acks
			r.mu.Unlock()
			if acks != nil {
				select {
				case acks <- params.Notifications:
				default:
				}
			}
		}
	}
	return ResourceUpdate{}, false
}

// stop ends the listen stream, if any, and waits for its goroutine. The
// session's client must be closed or closing.
func (r *resourceSubs) stop() {
	r.mu.Lock()
	r.stopped = true
	r.listen.end()
	r.listen = nil
	r.mu.Unlock()
	r.wg.Wait()
}

// ResourcesPage lists one page of the session's resources: the first when
// cursor is "", else the page that cursor (a NextCursor) names.
func (p *Pool) ResourcesPage(ctx context.Context, sessionID int64, cursor string) (mcpclient.Page[mcpclient.Resource], error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return mcpclient.Page[mcpclient.Resource]{}, err
	}
	page, err := ls.client.ListResourcesPage(ctx, cursor)
	if err != nil {
		return page, ls.callError("resources/list", err)
	}
	return page, nil
}

// ResourceTemplatesPage lists one page of the session's resource templates.
func (p *Pool) ResourceTemplatesPage(ctx context.Context, sessionID int64, cursor string) (mcpclient.Page[mcpclient.ResourceTemplate], error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return mcpclient.Page[mcpclient.ResourceTemplate]{}, err
	}
	page, err := ls.client.ListResourceTemplatesPage(ctx, cursor)
	if err != nil {
		return page, ls.callError("resources/templates/list", err)
	}
	return page, nil
}

// ReadResource reads a resource (resources/read). A JSON-RPC error answer
// is an EUnavailable *Error that quotes it.
func (p *Pool) ReadResource(ctx context.Context, sessionID int64, uri string) (*mcpclient.ReadResourceResult, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return nil, err
	}
	res, err := ls.client.ReadResource(ctx, uri)
	if err != nil {
		return nil, ls.callError("resources/read", err)
	}
	return res, nil
}

// ResourceSubscriptions returns the session's resource subscriptions and
// the last update of each resource; an EConflict *Error when the session
// is not live.
func (p *Pool) ResourceSubscriptions(sessionID int64) (ResourceSubscriptions, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return ResourceSubscriptions{}, err
	}
	offered, subscribe := ls.resourceCapability()
	out := ResourceSubscriptions{Offered: offered, Supported: subscribe, Subscribed: map[string]bool{}, Updated: map[string]time.Time{}}
	ls.resources.mu.Lock()
	defer ls.resources.mu.Unlock()
	for uri := range ls.resources.subscribed {
		out.Subscribed[uri] = true
	}
	for uri, at := range ls.resources.updated {
		out.Updated[uri] = at
	}
	return out, nil
}

// resourceCapability reports whether the server declared the resources
// capability, and within it resources.subscribe.
func (ls *liveSession) resourceCapability() (offered, subscribe bool) {
	var caps struct {
		Resources *struct {
			Subscribe bool `json:"subscribe"`
		} `json:"resources"`
	}
	if json.Unmarshal(ls.client.InitializeResult().Capabilities, &caps) != nil || caps.Resources == nil {
		return false, false
	}
	return true, caps.Resources.Subscribe
}

// Subscribe asks the server for updates of the resource at uri: with
// resources/subscribe in the legacy era; in the modern era by replacing
// the session's subscriptions/listen stream with one that also names uri,
// once the server acknowledged it. Updates are then published on the hub
// (Event.Resource). A server that does not declare resources.subscribe is
// refused with an EInvalid *Error, before anything is sent.
func (p *Pool) Subscribe(ctx context.Context, sessionID int64, uri string) error {
	return p.changeSubscription(ctx, sessionID, uri, true)
}

// Unsubscribe ends the updates of the resource at uri: resources/unsubscribe
// in the legacy era, a listen stream without uri (or none) in the modern
// era.
func (p *Pool) Unsubscribe(ctx context.Context, sessionID int64, uri string) error {
	return p.changeSubscription(ctx, sessionID, uri, false)
}

func (p *Pool) changeSubscription(ctx context.Context, sessionID int64, uri string, on bool) error {
	ls, err := p.writable(sessionID)
	if err != nil {
		return err
	}
	if _, subscribe := ls.resourceCapability(); !subscribe {
		return Errorf(EInvalid, "The server does not offer resource subscriptions (resources.subscribe).")
	}
	r := &ls.resources
	r.change.Lock()
	defer r.change.Unlock()
	if ls.client.Era() == mcpclient.EraModern {
		return p.relisten(ctx, ls, uri, on)
	}
	if on {
		err = ls.client.Subscribe(ctx, uri)
	} else {
		err = ls.client.Unsubscribe(ctx, uri)
	}
	if err != nil {
		method := "resources/subscribe"
		if !on {
			method = "resources/unsubscribe"
		}
		return ls.callError(method, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subscribed == nil {
		r.subscribed = map[string]bool{}
	}
	if on {
		r.subscribed[uri] = true
	} else {
		delete(r.subscribed, uri)
	}
	return nil
}

// relisten replaces the session's listen stream with one for the
// subscribed URIs with uri added (on) or removed, and waits until the
// server acknowledged the new stream and honoured uri. The old stream ends
// once the new one is acknowledged, or stays if it is not.
func (p *Pool) relisten(ctx context.Context, ls *liveSession, uri string, on bool) error {
	r := &ls.resources
	r.mu.Lock()
	want := make([]string, 0, len(r.subscribed)+1)
	for u := range r.subscribed {
		if u != uri {
			want = append(want, u)
		}
	}
	if on {
		want = append(want, uri)
	}
	slices.Sort(want)
	old := r.listen
	if r.stopped {
		r.mu.Unlock()
		return Errorf(EConflict, "The session is closing.")
	}
	if len(want) == 0 {
		r.listen, r.subscribed = nil, map[string]bool{}
		r.mu.Unlock()
		old.end()
		return nil
	}
	acks := make(chan mcpclient.NotificationSubscriptions, 1)
	r.acks = acks
	lctx, cancel := context.WithCancel(context.Background())
	stream := &listenStream{cancel: cancel}
	r.listen = stream
	ended := make(chan error, 1)
	r.wg.Add(1)
	r.mu.Unlock()

	go func() {
		defer r.wg.Done()
		defer cancel()
		ended <- ls.client.Listen(lctx, mcpclient.NotificationSubscriptions{ResourceSubscriptions: want})
		// Ended by the server or the connection, the stream's
		// subscriptions are gone.
		r.mu.Lock()
		if r.listen == stream {
			r.listen, r.subscribed = nil, map[string]bool{}
		}
		r.mu.Unlock()
	}()

	wait, stop := context.WithTimeout(ctx, listenAckTimeout)
	defer stop()
	var ack mcpclient.NotificationSubscriptions
	select {
	case ack = <-acks:
	case err := <-ended:
		r.restore(stream, old)
		if err == nil {
			return Errorf(EUnavailable, "subscriptions/listen ended at once: the server closed the stream.")
		}
		return ls.callError("subscriptions/listen", err)
	case <-wait.Done():
		cancel()
		r.restore(stream, old)
		return Errorf(EUnavailable, "subscriptions/listen: the server did not acknowledge the stream in time.")
	}
	old.end()
	if on && !slices.Contains(ack.ResourceSubscriptions, uri) {
		return Errorf(EUnavailable, "The server acknowledged the subscription stream without %s.", uri)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.listen == stream {
		r.subscribed = map[string]bool{}
		for _, u := range ack.ResourceSubscriptions {
			r.subscribed[u] = true
		}
	}
	return nil
}

// restore makes old the running stream again after failed, its
// replacement, failed.
func (r *resourceSubs) restore(failed, old *listenStream) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.listen == failed {
		r.listen = old
	}
}
