// End-to-end tests start real processes; a gateway on embedded PGlite takes a few seconds.
jest.setTimeout(60_000);
