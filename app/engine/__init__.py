"""Pure rules: no Flask, no I/O, no clock, no global randomness."""
