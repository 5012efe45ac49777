package backend

import "strconv"

// Count says n of noun for people: "1 change", "0 changes", "2 changes".
// noun takes an s in the plural.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
