// Probe limits shared by serve processes on PostgreSQL, through redis (test/support/probe-cluster-suite.ts).
import { describeProbeCluster } from '../support/probe-cluster-suite.ts';

describeProbeCluster('redis');
