//! The verification harness: perft, conformance, consistency, random positions.
