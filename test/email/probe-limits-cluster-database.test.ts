// Probe limits shared by serve processes on PostgreSQL, through database (test/support/probe-cluster-suite.ts).
import { describeProbeCluster } from '../support/probe-cluster-suite.ts';

describeProbeCluster('database');
