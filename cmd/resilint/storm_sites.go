package main

import "github.com/resilint/resilint/sim"

// siteClient is a client made from a retry site of the code.
type siteClient struct {
	client *sim.Client
	about  string
}

// siteClients loads pkgs and makes a client of each retry site (only the
// one at site, if set). TODO: filled in by the next commit.
func siteClients(pkgs []string, site string, maxSites int) ([]siteClient, []string, error) {
	return nil, nil, nil
}
