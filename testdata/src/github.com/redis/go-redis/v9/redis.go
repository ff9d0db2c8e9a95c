// Package redis is a stub of github.com/redis/go-redis/v9 for resilint's
// analyzer fixtures: the types and the commands the catalog names, with the
// library's shape (commands are methods of the unexported cmdable, embedded
// in the clients, the transaction and the pipeline; the Cmdable interface
// lists them). Bodies do nothing.
package redis

import (
	"context"
	"time"
)

type Cmder interface{ Err() error }

type baseCmd struct{ err error }

func (c *baseCmd) Err() error { return c.err }

type Cmd struct{ baseCmd }

func (c *Cmd) Result() (interface{}, error) { return nil, c.err }
func (c *Cmd) Int64() (int64, error)        { return 0, c.err }
func (c *Cmd) Val() interface{}             { return nil }

type StringCmd struct{ baseCmd }

func (c *StringCmd) Result() (string, error) { return "", c.err }
func (c *StringCmd) Int64() (int64, error)   { return 0, c.err }
func (c *StringCmd) Int() (int, error)       { return 0, c.err }
func (c *StringCmd) Val() string             { return "" }

type IntCmd struct{ baseCmd }

func (c *IntCmd) Result() (int64, error) { return 0, c.err }
func (c *IntCmd) Val() int64             { return 0 }

type FloatCmd struct{ baseCmd }

func (c *FloatCmd) Result() (float64, error) { return 0, c.err }
func (c *FloatCmd) Val() float64             { return 0 }

type BoolCmd struct{ baseCmd }

func (c *BoolCmd) Result() (bool, error) { return false, c.err }
func (c *BoolCmd) Val() bool             { return false }

type StatusCmd struct{ baseCmd }

func (c *StatusCmd) Result() (string, error) { return "", c.err }
func (c *StatusCmd) Val() string             { return "" }

type DurationCmd struct{ baseCmd }

func (c *DurationCmd) Result() (time.Duration, error) { return 0, c.err }
func (c *DurationCmd) Val() time.Duration             { return 0 }

type SliceCmd struct{ baseCmd }

func (c *SliceCmd) Result() ([]interface{}, error) { return nil, c.err }

type StringSliceCmd struct{ baseCmd }

func (c *StringSliceCmd) Result() ([]string, error) { return nil, c.err }

type MapStringStringCmd struct{ baseCmd }

func (c *MapStringStringCmd) Result() (map[string]string, error) { return nil, c.err }

// Z is a sorted set member.
type Z struct {
	Score  float64
	Member interface{}
}

// ZRangeBy is a score range.
type ZRangeBy struct {
	Min, Max      string
	Offset, Count int64
}

// Nil is the reply of a missing key.
const Nil = RedisError("redis: nil")

type RedisError string

func (e RedisError) Error() string { return string(e) }

// TxFailedErr is returned when a watched key changed.
const TxFailedErr = RedisError("redis: transaction failed")

// Cmdable lists the commands every client, transaction and pipeline has.
type Cmdable interface {
	Pipeline() Pipeliner
	Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)
	TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)
	TxPipeline() Pipeliner

	Get(ctx context.Context, key string) *StringCmd
	MGet(ctx context.Context, keys ...string) *SliceCmd
	GetSet(ctx context.Context, key string, value interface{}) *StringCmd
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetEx(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd
	Incr(ctx context.Context, key string) *IntCmd
	IncrBy(ctx context.Context, key string, value int64) *IntCmd
	IncrByFloat(ctx context.Context, key string, value float64) *FloatCmd
	Decr(ctx context.Context, key string) *IntCmd
	DecrBy(ctx context.Context, key string, decrement int64) *IntCmd
	Del(ctx context.Context, keys ...string) *IntCmd
	Exists(ctx context.Context, keys ...string) *IntCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	ExpireNX(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	ExpireAt(ctx context.Context, key string, tm time.Time) *BoolCmd
	PExpire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	TTL(ctx context.Context, key string) *DurationCmd
	PTTL(ctx context.Context, key string) *DurationCmd
	HGet(ctx context.Context, key, field string) *StringCmd
	HGetAll(ctx context.Context, key string) *MapStringStringCmd
	HMGet(ctx context.Context, key string, fields ...string) *SliceCmd
	HLen(ctx context.Context, key string) *IntCmd
	HSet(ctx context.Context, key string, values ...interface{}) *IntCmd
	HIncrBy(ctx context.Context, key, field string, incr int64) *IntCmd
	HIncrByFloat(ctx context.Context, key, field string, incr float64) *FloatCmd
	LLen(ctx context.Context, key string) *IntCmd
	LRange(ctx context.Context, key string, start, stop int64) *StringSliceCmd
	LPush(ctx context.Context, key string, values ...interface{}) *IntCmd
	RPush(ctx context.Context, key string, values ...interface{}) *IntCmd
	SCard(ctx context.Context, key string) *IntCmd
	SAdd(ctx context.Context, key string, members ...interface{}) *IntCmd
	ZCard(ctx context.Context, key string) *IntCmd
	ZCount(ctx context.Context, key, min, max string) *IntCmd
	ZRange(ctx context.Context, key string, start, stop int64) *StringSliceCmd
	ZRangeByScore(ctx context.Context, key string, opt *ZRangeBy) *StringSliceCmd
	ZAdd(ctx context.Context, key string, members ...Z) *IntCmd
	ZRemRangeByScore(ctx context.Context, key, min, max string) *IntCmd

	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	EvalRO(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	ScriptExists(ctx context.Context, hashes ...string) *BoolCmd
	ScriptLoad(ctx context.Context, script string) *StringCmd
}

// StatefulCmdable adds connection-state commands.
type StatefulCmdable interface {
	Cmdable
	Select(ctx context.Context, index int) *StatusCmd
}

// Pipeliner queues commands until Exec.
type Pipeliner interface {
	StatefulCmdable
	Len() int
	Do(ctx context.Context, args ...interface{}) *Cmd
	Discard()
	Exec(ctx context.Context) ([]Cmder, error)
}

// UniversalClient is a Client, a ClusterClient or a Ring.
type UniversalClient interface {
	Cmdable
	Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error
	Do(ctx context.Context, args ...interface{}) *Cmd
	Close() error
}

// Scripter is what a Script runs on.
type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	EvalRO(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	ScriptExists(ctx context.Context, hashes ...string) *BoolCmd
	ScriptLoad(ctx context.Context, script string) *StringCmd
}

var (
	_ Cmdable   = (*Client)(nil)
	_ Cmdable   = (*Tx)(nil)
	_ Cmdable   = (*ClusterClient)(nil)
	_ Cmdable   = (*Ring)(nil)
	_ Pipeliner = (*Pipeline)(nil)

	_ UniversalClient = (*Client)(nil)
	_ UniversalClient = (*ClusterClient)(nil)
)

type cmdable func(ctx context.Context, cmd Cmder) error

type statefulCmdable func(ctx context.Context, cmd Cmder) error

func (c statefulCmdable) Select(ctx context.Context, index int) *StatusCmd { return &StatusCmd{} }

func (c cmdable) Get(ctx context.Context, key string) *StringCmd     { return &StringCmd{} }
func (c cmdable) MGet(ctx context.Context, keys ...string) *SliceCmd { return &SliceCmd{} }
func (c cmdable) GetSet(ctx context.Context, key string, value interface{}) *StringCmd {
	return &StringCmd{}
}
func (c cmdable) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) SetEx(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) Incr(ctx context.Context, key string) *IntCmd                { return &IntCmd{} }
func (c cmdable) IncrBy(ctx context.Context, key string, value int64) *IntCmd { return &IntCmd{} }
func (c cmdable) IncrByFloat(ctx context.Context, key string, value float64) *FloatCmd {
	return &FloatCmd{}
}
func (c cmdable) Decr(ctx context.Context, key string) *IntCmd                    { return &IntCmd{} }
func (c cmdable) DecrBy(ctx context.Context, key string, decrement int64) *IntCmd { return &IntCmd{} }
func (c cmdable) Del(ctx context.Context, keys ...string) *IntCmd                 { return &IntCmd{} }
func (c cmdable) Exists(ctx context.Context, keys ...string) *IntCmd              { return &IntCmd{} }
func (c cmdable) Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) ExpireNX(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) ExpireAt(ctx context.Context, key string, tm time.Time) *BoolCmd { return &BoolCmd{} }
func (c cmdable) PExpire(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) TTL(ctx context.Context, key string) *DurationCmd            { return &DurationCmd{} }
func (c cmdable) PTTL(ctx context.Context, key string) *DurationCmd           { return &DurationCmd{} }
func (c cmdable) HGet(ctx context.Context, key, field string) *StringCmd      { return &StringCmd{} }
func (c cmdable) HGetAll(ctx context.Context, key string) *MapStringStringCmd { return nil }
func (c cmdable) HMGet(ctx context.Context, key string, fields ...string) *SliceCmd {
	return &SliceCmd{}
}
func (c cmdable) HLen(ctx context.Context, key string) *IntCmd { return &IntCmd{} }
func (c cmdable) HSet(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) HIncrBy(ctx context.Context, key, field string, incr int64) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) HIncrByFloat(ctx context.Context, key, field string, incr float64) *FloatCmd {
	return &FloatCmd{}
}
func (c cmdable) LLen(ctx context.Context, key string) *IntCmd { return &IntCmd{} }
func (c cmdable) LRange(ctx context.Context, key string, start, stop int64) *StringSliceCmd {
	return &StringSliceCmd{}
}
func (c cmdable) LPush(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) RPush(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) SCard(ctx context.Context, key string) *IntCmd { return &IntCmd{} }
func (c cmdable) SAdd(ctx context.Context, key string, members ...interface{}) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) ZCard(ctx context.Context, key string) *IntCmd              { return &IntCmd{} }
func (c cmdable) ZCount(ctx context.Context, key, min, max string) *IntCmd   { return &IntCmd{} }
func (c cmdable) ZAdd(ctx context.Context, key string, members ...Z) *IntCmd { return &IntCmd{} }
func (c cmdable) ZRemRangeByScore(ctx context.Context, key, min, max string) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) ZRange(ctx context.Context, key string, start, stop int64) *StringSliceCmd {
	return &StringSliceCmd{}
}
func (c cmdable) ZRangeByScore(ctx context.Context, key string, opt *ZRangeBy) *StringSliceCmd {
	return &StringSliceCmd{}
}
func (c cmdable) Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (c cmdable) EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (c cmdable) EvalRO(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (c cmdable) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (c cmdable) ScriptExists(ctx context.Context, hashes ...string) *BoolCmd { return &BoolCmd{} }
func (c cmdable) ScriptLoad(ctx context.Context, script string) *StringCmd    { return &StringCmd{} }

// Options configures a Client.
type Options struct {
	Addr string
}

// ClusterOptions configures a ClusterClient.
type ClusterOptions struct {
	Addrs []string
}

// Client is a connection pool to one Redis server.
type Client struct {
	cmdable
}

// NewClient returns a client.
func NewClient(opt *Options) *Client { return &Client{} }

func (c *Client) Close() error                                     { return nil }
func (c *Client) Do(ctx context.Context, args ...interface{}) *Cmd { return &Cmd{} }
func (c *Client) Pipeline() Pipeliner                              { return &Pipeline{} }
func (c *Client) TxPipeline() Pipeliner                            { return &Pipeline{} }
func (c *Client) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error {
	return fn(&Tx{})
}
func (c *Client) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(&Pipeline{})
}
func (c *Client) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(&Pipeline{})
}

// ClusterClient is a Redis Cluster client.
type ClusterClient struct {
	cmdable
}

// NewClusterClient returns a cluster client.
func NewClusterClient(opt *ClusterOptions) *ClusterClient { return &ClusterClient{} }

func (c *ClusterClient) Close() error                                     { return nil }
func (c *ClusterClient) Do(ctx context.Context, args ...interface{}) *Cmd { return &Cmd{} }
func (c *ClusterClient) Pipeline() Pipeliner                              { return &Pipeline{} }
func (c *ClusterClient) TxPipeline() Pipeliner                            { return &Pipeline{} }
func (c *ClusterClient) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error {
	return fn(&Tx{})
}
func (c *ClusterClient) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(&Pipeline{})
}
func (c *ClusterClient) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(&Pipeline{})
}

// Ring shards keys over several servers.
type Ring struct {
	cmdable
}

func (c *Ring) Pipeline() Pipeliner   { return &Pipeline{} }
func (c *Ring) TxPipeline() Pipeliner { return &Pipeline{} }
func (c *Ring) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(&Pipeline{})
}
func (c *Ring) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(&Pipeline{})
}

// Tx is a transaction on a connection with watched keys.
type Tx struct {
	cmdable
	statefulCmdable
}

func (c *Tx) Watch(ctx context.Context, keys ...string) *StatusCmd   { return &StatusCmd{} }
func (c *Tx) Unwatch(ctx context.Context, keys ...string) *StatusCmd { return &StatusCmd{} }
func (c *Tx) Close(ctx context.Context) error                        { return nil }
func (c *Tx) Pipeline() Pipeliner                                    { return &Pipeline{} }
func (c *Tx) TxPipeline() Pipeliner                                  { return &Pipeline{} }
func (c *Tx) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(&Pipeline{})
}
func (c *Tx) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(&Pipeline{})
}

// Pipeline queues commands until Exec.
type Pipeline struct {
	cmdable
	statefulCmdable
}

func (c *Pipeline) Len() int                                         { return 0 }
func (c *Pipeline) Do(ctx context.Context, args ...interface{}) *Cmd { return &Cmd{} }
func (c *Pipeline) Discard()                                         {}
func (c *Pipeline) Exec(ctx context.Context) ([]Cmder, error)        { return nil, nil }
func (c *Pipeline) Pipeline() Pipeliner                              { return c }
func (c *Pipeline) TxPipeline() Pipeliner                            { return c }
func (c *Pipeline) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(c)
}
func (c *Pipeline) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(c)
}

// Script is a Lua script run by its SHA1, loaded on NOSCRIPT.
type Script struct {
	src string
}

// NewScript returns a script.
func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Hash() string                                    { return "" }
func (s *Script) Load(ctx context.Context, c Scripter) *StringCmd { return &StringCmd{} }
func (s *Script) Eval(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (s *Script) EvalRO(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (s *Script) EvalSha(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (s *Script) EvalShaRO(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (s *Script) RunRO(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
