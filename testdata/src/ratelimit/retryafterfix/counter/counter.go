// Package counter counts requests in Redis for handlers of other packages.
package counter

import "github.com/gomodule/redigo/redis"

// Allow counts key in a window of 60 seconds.
func Allow(c redis.Conn, key string) bool {
	n, _ := redis.Int(c.Do("INCR", key)) // want `INCR of key, then EXPIRE in a separate command`
	c.Do("EXPIRE", key, 60)
	return n <= 10
}
