package main

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// parseTrustedProxies reads a comma-separated list of CIDRs, where a bare
// address stands for itself alone ("" is none).
func parseTrustedProxies(list string) ([]netip.Prefix, error) {
	var prefixes []netip.Prefix
	for _, item := range strings.Split(list, ",") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		p, err := netip.ParsePrefix(item)
		if err != nil {
			addr, aerr := netip.ParseAddr(item)
			if aerr != nil {
				return nil, fmt.Errorf("serve: --trusted-proxy %q: want a CIDR such as 10.0.0.0/8 or an address", item)
			}
			p = netip.PrefixFrom(addr, addr.BitLen())
		}
		prefixes = append(prefixes, p.Masked())
	}
	return prefixes, nil
}

// parseBaseURL checks a public URL given by flag: http or https, a host,
// no path (the dashboard's routes start at /), query, fragment or user.
// It returns it as scheme://host[:port], lower case, without the scheme's
// default port (browsers leave it out of the Host they send), or "" for "".
func parseBaseURL(flag, raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("serve: %s %q: want an http or https URL with a host and nothing after it, e.g. https://playground.example.com", flag, raw)
	}
	host := strings.ToLower(u.Host)
	if port := u.Port(); (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		host = strings.ToLower(u.Hostname())
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
	}
	return u.Scheme + "://" + host, nil
}
