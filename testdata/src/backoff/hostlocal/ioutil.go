package hostlocal

import (
	"encoding/json"
	"io/ioutil"
	"net/http"
	"time"
)

// LoadCache re-reads a cache file this host writes when it decodes
// badly (read while half written): io/ioutil's ReadFile is os's, and
// json.Unmarshal reads only the bytes given. Not reported.
func LoadCache(file string, v any) error {
	var err error
	for i := 0; i < 3; i++ {
		var b []byte
		if b, err = ioutil.ReadFile(file); err != nil {
			return err
		}
		if err = json.Unmarshal(b, v); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return err
}

// The near miss: io/ioutil's ReadAll reads what it is given, here a
// response body from another host: reported.
func FetchDecoded(c *http.Client, url string, v any) error {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.Get(url); err == nil {
			var b []byte
			b, err = ioutil.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil {
				if err = json.Unmarshal(b, v); err == nil {
					return nil
				}
			}
		}
		time.Sleep(300 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}
