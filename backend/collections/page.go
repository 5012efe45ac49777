package collections

import "context"

// Page is one page of a listing that pages by a key: Items, and whether
// another page follows them.
type Page[T any] struct {
	Items []T
	More  bool // another page follows the last item
}

// pageOf trims a listing fetched with one item more than size into a Page.
func pageOf[T any](items []T, size int) Page[T] {
	if len(items) > size {
		return Page[T]{Items: items[:size], More: true}
	}
	return Page[T]{Items: items}
}

// ListPage returns up to size collections named after after (all from the
// first when after is ""), by name.
func (s *Service) ListPage(ctx context.Context, after string, size int) (Page[Collection], error) {
	list, err := s.store.ListCollectionsPage(ctx, after, size+1)
	return pageOf(list, size), err
}

// ExamplesPage returns up to size of the collection's examples placed
// after afterPosition (from the first when it is 0), in order.
func (s *Service) ExamplesPage(ctx context.Context, collectionID int64, afterPosition, size int) (Page[Example], error) {
	list, err := s.store.ListExamplesPage(ctx, collectionID, afterPosition, size+1)
	return pageOf(list, size), err
}

// RunsPage returns up to size of the collection's runs older than the run
// before (from the newest when it is 0), newest first.
func (s *Service) RunsPage(ctx context.Context, collectionID, before int64, size int) (Page[Run], error) {
	list, err := s.store.ListRunsBefore(ctx, collectionID, before, size+1)
	return pageOf(list, size), err
}
