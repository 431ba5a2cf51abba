import type { FastifyPluginAsync } from 'fastify';
import health from './api/health.ts';
import credits from './api/credits.ts';
import lookups from './api/lookups.ts';
import emailValidate from './api/email-validate.ts';
import emailBulk from './api/email-bulk.ts';
import bulk from './api/bulk.ts';
import bulkInsights from './api/bulk-insights.ts';
import emailFinder from './api/email-finder.ts';
import companyFunding from './api/company-funding.ts';
import companySearch from './api/company-search.ts';
import employeeFinder from './api/employee-finder.ts';
import jobsFinder from './api/jobs-finder.ts';
import roleFinder from './api/role-finder.ts';
import mobileFinder from './api/mobile-finder.ts';
import profileEmail from './api/b2b-profile-email.ts';
import emailToProfile from './api/b2b-profile.ts';
import profileSearch from './api/profile-search.ts';
import personalEmailFinder from './api/personal-email-finder.ts';
import jobChangeDetector from './api/job-change-detector.ts';
import competitorsSearch from './api/competitors-search.ts';
import technographics from './api/technographics.ts';
import peopleSearch from './api/people-search.ts';
import sesWebhook from './webhooks/webhooks-ses.ts';
import sendgridWebhook from './webhooks/webhooks-sendgrid.ts';
import postmarkWebhook from './webhooks/webhooks-postmark.ts';
import mailgunWebhook from './webhooks/webhooks-mailgun.ts';
import adminSources from './admin/admin-sources.ts';
import adminConsole from './admin/admin-console.ts';
import adminLists from './admin/admin-lists.ts';
import adminOps from './admin/admin-ops.ts';
import adminExplore from './admin/admin-explore.ts';
import v1 from './v1/v1.ts';
import mcp from './mcp.ts';

/** Every route plugin of the API, registered by buildApp in this order. */
export const routes: FastifyPluginAsync[] = [
  health,
  credits,
  lookups,
  emailValidate,
  emailBulk,
  bulk,
  bulkInsights,
  emailFinder,
  companyFunding,
  companySearch,
  employeeFinder,
  jobsFinder,
  roleFinder,
  mobileFinder,
  profileEmail,
  emailToProfile,
  profileSearch,
  personalEmailFinder,
  jobChangeDetector,
  competitorsSearch,
  technographics,
  peopleSearch,
  sesWebhook,
  sendgridWebhook,
  postmarkWebhook,
  mailgunWebhook,
  adminSources,
  adminConsole,
  adminLists,
  adminOps,
  adminExplore,
  v1,
  mcp,
];
