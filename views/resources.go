package views

import (
	"net/url"
	"strings"
)

func queryEscape(s string) string { return url.QueryEscape(s) }

// resourceName is a resource's name, with its title when that says more.
func resourceName(name, title string) string {
	switch {
	case title == "" || title == name:
		return name
	case name == "":
		return title
	}
	return title + " (" + name + ")"
}

// downloadName is the file name a download of a resource's contents
// suggests: the URI's last segment before any query, or a generic one.
func downloadName(uri string) string {
	name := uri
	if cut := strings.IndexAny(name, "?#"); cut >= 0 {
		name = name[:cut]
	}
	name = strings.TrimRight(name, "/")
	if slash := strings.LastIndexByte(name, '/'); slash >= 0 {
		name = name[slash+1:]
	}
	if unescaped, err := url.PathUnescape(name); err == nil {
		name = unescaped
	}
	if name == "" || strings.ContainsAny(name, ":/\\") {
		return "resource.bin"
	}
	return name
}
