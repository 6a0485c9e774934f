//! HyperPod import and export tests.
