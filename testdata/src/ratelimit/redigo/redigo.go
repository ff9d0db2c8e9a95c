package redigo

import (
	"github.com/gomodule/redigo/redis"
)

// GET, then INCR, by name.
func allow(pool *redis.Pool, user string) (bool, error) {
	c := pool.Get()
	defer c.Close()
	key := "rl:" + user
	n, err := redis.Int(c.Do("GET", key)) // want `GET of key, then INCR of it in a separate command \(not atomic\)`
	if err != nil && err != redis.ErrNil {
		return false, err
	}
	if n >= 60 {
		return false, nil
	}
	_, err = c.Do("INCR", key)
	return err == nil, err
}

// INCR, then EXPIRE.
func window(c redis.Conn, user string) (int, error) {
	key := "w:" + user
	n, err := redis.Int(c.Do("incr", key)) // want `INCR of key, then EXPIRE in a separate command`
	if err != nil {
		return 0, err
	}
	if n == 1 {
		c.Do("EXPIRE", key, 60)
	}
	return n, nil
}

// A value computed from the reply.
func setNext(c redis.Conn, key string) {
	n, _ := redis.Int64(c.Do("GET", key)) // want `GET of key, then SET of it`
	c.Do("SET", key, n+1)
}

// --- near misses ---

// MULTI/EXEC: the commands run in one transaction.
func okMulti(c redis.Conn, user string) error {
	key := "m:" + user
	c.Send("MULTI")
	c.Send("INCR", key)
	c.Send("EXPIRE", key, 60)
	_, err := c.Do("EXEC")
	return err
}

// MULTI with Do.
func okMultiDo(c redis.Conn, user string) error {
	key := "md:" + user
	c.Do("MULTI")
	c.Do("INCR", key)
	c.Do("EXPIRE", key, 60)
	_, err := c.Do("EXEC")
	return err
}

// Queued with Send: the replies come later, nothing is decided between.
func okPipeline(c redis.Conn, key string) error {
	c.Send("INCR", key)
	c.Send("EXPIRE", key, 60)
	return c.Flush()
}

// A script.
var incr = redis.NewScript(1, `return redis.call("INCR", KEYS[1])`)

func okScript(c redis.Conn, key string) (int, error) {
	return redis.Int(incr.Do(c, key))
}

// Different keys; a command name the check cannot see.
func okOther(c redis.Conn, user, cmd string) {
	n, _ := redis.Int(c.Do("GET", "a:"+user))
	c.Do("SET", "b:"+user, n+1)
	c.Do(cmd, "a:"+user)
}
