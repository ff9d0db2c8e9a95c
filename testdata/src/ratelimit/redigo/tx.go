package redigo

import "github.com/gomodule/redigo/redis"

// The count is read before the transaction and nothing WATCHes it: the
// MULTI runs INCR and EXPIRE together, but on a decision every
// concurrent request made from the same stale count.
func allowTx(c redis.Conn, user string, limit int) (bool, error) {
	key := "rl:" + user
	n, err := redis.Int(c.Do("GET", key)) // want `GET of key, then INCR of it in a separate command \(not atomic\)`
	if err != nil && err != redis.ErrNil {
		return false, err
	}
	if n >= limit {
		return false, nil
	}
	c.Do("MULTI")
	c.Do("INCR", key)
	c.Do("EXPIRE", key, 60)
	if _, err := c.Do("EXEC"); err != nil {
		return false, err
	}
	return true, nil
}

// Near miss: WATCH before the read makes EXEC fail when the count moved
// (optimistic locking).
func allowWatched(c redis.Conn, user string, limit int) (bool, error) {
	key := "rl:" + user
	c.Do("WATCH", key)
	n, err := redis.Int(c.Do("GET", key))
	if err != nil && err != redis.ErrNil {
		return false, err
	}
	if n >= limit {
		c.Do("UNWATCH")
		return false, nil
	}
	c.Do("MULTI")
	c.Do("INCR", key)
	c.Do("EXPIRE", key, 60)
	if _, err := c.Do("EXEC"); err != nil {
		return false, err
	}
	return true, nil
}

// Near misses: WATCH of another key, and UNWATCH before the MULTI, leave
// the read unprotected.
func allowWatchOther(c redis.Conn, user string, limit int) (bool, error) {
	key := "rl:" + user
	c.Do("WATCH", "rl:global")
	n, err := redis.Int(c.Do("GET", key)) // want `GET of key, then INCR of it in a separate command \(not atomic\)`
	if err != nil && err != redis.ErrNil {
		return false, err
	}
	if n >= limit {
		return false, nil
	}
	c.Do("MULTI")
	c.Do("INCR", key)
	_, err = c.Do("EXEC")
	return err == nil, err
}

func allowUnwatched(c redis.Conn, user string, limit int) (bool, error) {
	key := "rl:" + user
	c.Do("WATCH", key)
	n, err := redis.Int(c.Do("GET", key)) // want `GET of key, then INCR of it in a separate command \(not atomic\)`
	if err != nil && err != redis.ErrNil {
		return false, err
	}
	c.Do("UNWATCH")
	if n >= limit {
		return false, nil
	}
	c.Do("MULTI")
	c.Do("INCR", key)
	_, err = c.Do("EXEC")
	return err == nil, err
}

// A refusal that DISCARDs and returns, beside the path that EXECs: the
// transaction goes on in source order, still watched.
func allowDiscardPath(c redis.Conn, user string, limit int) (bool, error) {
	key := "rl:" + user
	c.Do("WATCH", key)
	n, err := redis.Int(c.Do("GET", key))
	if err != nil && err != redis.ErrNil {
		return false, err
	}
	c.Do("MULTI")
	if n >= limit {
		c.Do("DISCARD")
		return false, nil
	}
	c.Do("INCR", key)
	c.Do("EXPIRE", key, 60)
	_, err = c.Do("EXEC")
	return err == nil, err
}

// Near miss: INCR in the transaction, EXPIRE after its EXEC.
func countThenExpire(c redis.Conn, user string) error {
	key := "rl:" + user
	c.Do("MULTI")
	c.Do("INCR", key) // want `INCR of key, then EXPIRE in a separate command`
	if _, err := c.Do("EXEC"); err != nil {
		return err
	}
	_, err := c.Do("EXPIRE", key, 60)
	return err
}
