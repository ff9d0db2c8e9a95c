package directives

func f() int {
	x := 1
	//resilint:ignore retrynesting a complete directive is fine
	x++
	//resilint:ignore backoff,timeoutchain several names are fine
	x++
	// want +1 `resilint:ignore directive gives no reason \(write why`
	//resilint:ignore retrynesting
	x++
	// want +1 `resilint:ignore directive names no check and gives no reason`
	//resilint:ignore
	x++
	// want +1 `resilint:ignore directive has an empty check name in "backoff,,retrynesting"`
	//resilint:ignore backoff,,retrynesting reason
	x++
	// want +1 `resilint:ignore directive names unknown check "retrynestin" \(the checks are retrynesting, decoratororder, idempotency, timeoutchain, backoff, ratelimit\)`
	//resilint:ignore retrynestin typo
	x++
	// want +1 `unknown check "nosuch"` `unknown check "other"`
	x++ //resilint:ignore nosuch,backoff,other two unknown names, two reports
	// resilint:ignore with a space is prose
	//resilint:ignored is another word
	/* //resilint:ignore inside a block comment is not a directive */
	return x
}
