-- docker-compose only: the test suite uses its own database, next to the demo's `vitalis`.
CREATE DATABASE vitalis_test;
