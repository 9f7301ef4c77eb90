"""Workflow plumbing: config file and checks, the study list, the job runner, outputs, shards."""
