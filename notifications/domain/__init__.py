"""Pure rules of notifications: what a message says, when a failed one is tried again, which
webhook addresses are accepted. No Django: plain values in, plain values out."""
