package routes

import "testing"

func TestLookup(t *testing.T) {
	tab := NewTable([]Route{
		{Host: "payments.shop.svc.cluster.local", Tries: 3, Where: "a.yaml:1"},
		{Host: "payments.shop.svc.cluster.local", Tries: 4, Where: "b.yaml:1"},
		{Host: "api.example.com", Tries: 2},
		{Host: "cart.shop.svc.cluster.local", Tries: 3},
		{Host: "cart.web.svc.cluster.local", Tries: 3},
	})
	var round Table
	if err := round.Set(tab.String()); err != nil || round.String() != tab.String() {
		t.Fatalf("round trip: %v\n%s\n%s", err, tab, &round)
	}
	for _, c := range []struct {
		host  string
		tries int
	}{
		{"payments.shop.svc.cluster.local", 4},
		{"payments.shop.svc", 4},
		{"payments.shop", 4},
		{"payments", 4}, // one service of that name
		{"PAYMENTS.shop.", 4},
		{"api.example.com", 2},
		{"cart", 0}, // two namespaces: unknown
		{"example.com", 0},
		{"10.0.0.1", 0},
		{"", 0},
	} {
		r, ok := round.Lookup(c.host)
		if ok != (c.tries > 0) || r.Tries != c.tries {
			t.Errorf("Lookup(%q) = %d tries, %v; want %d", c.host, r.Tries, ok, c.tries)
		}
	}
	for _, bad := range []string{"{", `[{"host":""}]`, `[{"host":"a","tries":0}]`} {
		if err := round.Set(bad); err == nil {
			t.Errorf("Set(%q): no error", bad)
		}
	}
	if err := round.Set(""); err != nil || round.Len() != 0 {
		t.Errorf("Set(\"\") = %v, %d routes", err, round.Len())
	}
}
