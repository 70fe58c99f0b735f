#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded here (see README "Prisma offline").
# `prisma generate` only checks that the file exists; it must exit non-zero and print nothing.
exit 1
