package mcpclient

import "time"

// requestWorkerIdle is how long a request worker waits for another
// request before it ends.
const requestWorkerIdle = 30 * time.Second

// runRequest runs job, the exchange of one request, on an idle request
// worker or on a new one. A worker that has run an exchange keeps the
// stack it grew for the next, which spares each request a fresh
// goroutine's start and stack growth on its critical path.
func (t *httpTransport) runRequest(job func()) {
	select {
	case t.jobs <- job:
		return
	default:
	}
	t.wg.Add(1)
	go t.requestWorker(job)
}

// requestWorker runs job, then the jobs handed to it, until it has been
// idle for requestWorkerIdle or the transport closes.
func (t *httpTransport) requestWorker(job func()) {
	defer t.wg.Done()
	idle := time.NewTimer(requestWorkerIdle)
	defer idle.Stop()
	for {
		job()
		idle.Reset(requestWorkerIdle)
		select {
		case job = <-t.jobs:
		case <-idle.C:
			return
		case <-t.ctx.Done():
			return
		}
	}
}
