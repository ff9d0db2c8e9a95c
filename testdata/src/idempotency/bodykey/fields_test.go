package bodykey

import "testing"

func TestSend(t *testing.T) {
	s := &sender{Config: Config{newID: func() string { return "fixed" }}, c: &client{}}
	_ = s
}
