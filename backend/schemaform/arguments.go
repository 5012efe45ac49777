package schemaform

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Arguments turns submitted form values (keyed by field path, see Join)
// into the JSON object they describe, typed by the schema. The form is
// authoritative for every value it has a field for; values[RawField], the
// JSON view, when it holds an object, contributes only the keys the form
// has no field for. Blank optional inputs are left out, an object none of
// whose inputs is filled in too, and null is sent only where the user
// chose it. Requiredness is the schema's to check (Validate). It returns
// field errors keyed by path (RawField for the JSON view) and no arguments
// when there are any.
func Arguments(form Form, values map[string]string) (json.RawMessage, map[string]string) {
	r := reader{values: values, errs: map[string]string{}}
	var raw any
	if text := strings.TrimSpace(values[RawField]); text != "" {
		v, err := decodeOrdered([]byte(text))
		switch _, isObj := v.(*object); {
		case err != nil:
			r.errs[RawField] = "The JSON is not valid: " + jsonErrorText(err)
		case !isObj:
			r.errs[RawField] = "The arguments must be a JSON object."
		default:
			raw = v
		}
	}
	root := r.object(&form.Root, "", raw)
	if len(r.errs) > 0 {
		return nil, r.errs
	}
	return encode(root), nil
}

// BoolLeftOut reports whether values leave the optional boolean at path
// out of the arguments: it has no value, or "not sent" is chosen and the
// box is not checked (checking it overrides "not sent"). A form shown
// again from submitted values marks "not sent" exactly then.
func BoolLeftOut(values map[string]string, path string) bool {
	text := strings.TrimSpace(values[path])
	return text == "" || (values[path+UnsetSuffix] != "" && text != "true")
}

type reader struct {
	values map[string]string
	errs   map[string]string
}

// value reads the field at path; ok is false when it is left out. raw is
// the JSON view's value at the same place, if any.
func (r reader) value(f *Field, path string, raw any) (v any, ok bool) {
	if f.Nullable && r.values[path+NullSuffix] != "" {
		return nil, true
	}
	switch f.Kind {
	case KindObject:
		o := r.object(f, path, raw)
		return o, len(o.keys) > 0
	case KindArray:
		return r.array(f, path, raw)
	case KindBoolean:
		if BoolLeftOut(r.values, path) {
			return nil, false
		}
	}
	text := strings.TrimSpace(r.values[path])
	if text == "" {
		return nil, false
	}
	v, err := scalar(f, text)
	if err != nil {
		r.errs[path] = err.Error()
		return nil, false
	}
	return v, true
}

// object reads an object's fields (and those of its chosen branch), and
// copies the keys of raw that it has no field for.
func (r reader) object(f *Field, path string, raw any) *object {
	out := &object{m: map[string]any{}}
	rawObj, _ := raw.(*object)
	fields := f.Fields
	if len(f.Branches) > 0 {
		fields = append(append([]*Field(nil), fields...), f.Branches[ChosenBranch(f, r.values, path)].Fields...)
	}
	owned := map[string]bool{}
	for _, c := range fields {
		owned[c.Name] = true
		if v, ok := r.value(c, Join(path, c.Name), rawObj.get(c.Name)); ok {
			out.set(c.Name, v)
		}
	}
	if rawObj != nil {
		for _, k := range rawObj.keys {
			if !owned[k] && !branchOwned(f, k) {
				out.set(k, rawObj.m[k])
			}
		}
	}
	return out
}

// branchOwned reports whether name is a field of any of f's branches: a
// branch not chosen leaves its keys out.
func branchOwned(f *Field, name string) bool {
	for _, b := range f.Branches {
		for _, c := range b.Fields {
			if c.Name == name {
				return true
			}
		}
	}
	return false
}

// ChosenBranch returns the index of the branch a union object's selector
// (values[path+ChoiceSuffix]) picks, the first when none is.
func ChosenBranch(f *Field, values map[string]string, path string) int {
	i, err := strconv.Atoi(values[path+ChoiceSuffix])
	if err != nil || i < 0 || i >= len(f.Branches) {
		return 0
	}
	return i
}

// array reads the items present in values in index order. A blank item
// is an empty object (whose required fields are then pointed out) or an
// empty string; a blank item of another kind is an error.
func (r reader) array(f *Field, path string, raw any) (any, bool) {
	rawItems, _ := raw.([]any)
	items := []any{}
	for _, i := range ItemIndexes(r.values, path) {
		var rawItem any
		if i < len(rawItems) {
			rawItem = rawItems[i]
		}
		v, ok := r.value(f.Item, Index(path, i), rawItem)
		if !ok {
			switch f.Item.Kind {
			case KindObject:
				v = &object{m: map[string]any{}}
			case KindString:
				v = ""
			default:
				if _, failed := r.errs[Index(path, i)]; !failed {
					r.errs[Index(path, i)] = "Fill in this item or remove it."
				}
				continue
			}
		}
		items = append(items, v)
	}
	return items, len(items) > 0
}

// ItemIndexes returns, in order, the indexes of the items of the array at
// path that values hold inputs for.
func ItemIndexes(values map[string]string, path string) []int {
	prefix := path + "."
	if path == "" {
		prefix = ""
	}
	seen := map[int]bool{}
	for k := range values {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		seg, _, _ := strings.Cut(rest, ".")
		seg, _, _ = strings.Cut(seg, "?")
		if i, err := strconv.Atoi(seg); err == nil && i >= 0 && strconv.Itoa(i) == seg {
			seen[i] = true
		}
	}
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// scalar reads the text of a leaf input as its JSON value.
func scalar(f *Field, text string) (any, error) {
	switch f.Kind {
	case KindString:
		return text, nil
	case KindNumber:
		n, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return nil, errors.New("Enter a number.")
		}
		return json.Number(strconv.FormatFloat(n, 'g', -1, 64)), nil
	case KindInteger:
		n, err := strconv.ParseInt(text, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("Enter a whole number from %d to %d.", math.MinInt64, math.MaxInt64)
		}
		if err != nil {
			return nil, errors.New("Enter a whole number.")
		}
		return json.Number(strconv.FormatInt(n, 10)), nil
	case KindBoolean:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, errors.New("Choose true or false.")
		}
		return b, nil
	case KindEnum:
		for _, o := range f.Options {
			if o.Value == text {
				return decodeOrdered([]byte(o.Value))
			}
		}
		return nil, errors.New("Choose one of the listed values.")
	case KindMulti:
		chosen, err := ChosenMembers(text)
		if err != nil {
			return nil, errors.New("Choose among the listed values.")
		}
		out := []any{}
		for _, o := range f.Options { // in the listed order, each once
			if chosen[o.Value] {
				v, _ := decodeOrdered([]byte(o.Value))
				out = append(out, v)
				delete(chosen, o.Value)
			}
		}
		if len(chosen) > 0 {
			return nil, errors.New("Choose among the listed values.")
		}
		return out, nil
	case KindJSON:
		v, err := decodeOrdered([]byte(text))
		if err != nil {
			return nil, errors.New("Enter valid JSON: " + jsonErrorText(err))
		}
		return v, nil
	}
	return nil, fmt.Errorf("schemaform: a %s field has no single value", f.Kind)
}

// ChosenMembers reads a multi-choice field's form text, a JSON array, as
// the set of its members' compact JSON texts.
func ChosenMembers(text string) (map[string]bool, error) {
	var members []json.RawMessage
	if err := json.Unmarshal([]byte(text), &members); err != nil {
		return nil, err
	}
	chosen := make(map[string]bool, len(members))
	for _, m := range members {
		v, err := decodeOrdered(m)
		if err != nil {
			return nil, err
		}
		chosen[string(encode(v))] = true
	}
	return chosen, nil
}

func jsonErrorText(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "the text ends before the value does"
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s (at byte %d)", syn.Error(), syn.Offset)
	}
	return err.Error()
}
