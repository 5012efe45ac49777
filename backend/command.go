package backend

import (
	"errors"
	"strings"
)

// SplitCommand splits a command line into words the way a POSIX shell
// does, without running one: blanks separate words; single quotes keep
// everything up to the next single quote; double quotes keep everything up
// to the next unescaped double quote, where a backslash escapes only $, `,
// ", \ and a newline; elsewhere a backslash escapes any character, and a
// backslash-newline is removed. Nothing is expanded: $HOME, ~ and * stay
// as they are. An unterminated quote, a backslash at the end and a line
// of blanks are errors.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case ' ', '\t', '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated single quote")
			}
			word.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				c := s[i]
				if c == '"' {
					closed = true
					break
				}
				if c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] != '\n' {
						word.WriteByte(s[i])
					}
					continue
				}
				word.WriteByte(c)
			}
			if !closed {
				return nil, errors.New("unterminated double quote")
			}
		case '\\':
			if i+1 == len(s) {
				return nil, errors.New("backslash at the end")
			}
			i++
			if s[i] != '\n' {
				word.WriteByte(s[i])
				inWord = true
			}
		default:
			word.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	if len(words) == 0 {
		return nil, errors.New("no command given")
	}
	return words, nil
}
