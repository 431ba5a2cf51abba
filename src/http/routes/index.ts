import type { FastifyPluginAsync } from 'fastify';
import health from './health.ts';
import credits from './credits.ts';
import lookups from './lookups.ts';
import emailValidate from './email-validate.ts';
import emailBulk from './email-bulk.ts';
import bulk from './bulk.ts';
import bulkInsights from './bulk-insights.ts';
import emailFinder from './email-finder.ts';
import companyFunding from './company-funding.ts';
import companySearch from './company-search.ts';
import employeeFinder from './employee-finder.ts';
import jobsFinder from './jobs-finder.ts';
import roleFinder from './role-finder.ts';
import mobileFinder from './mobile-finder.ts';
import profileEmail from './b2b-profile-email.ts';
import emailToProfile from './b2b-profile.ts';
import profileSearch from './profile-search.ts';
import personalEmailFinder from './personal-email-finder.ts';
import jobChangeDetector from './job-change-detector.ts';
import competitorsSearch from './competitors-search.ts';
import technographics from './technographics.ts';
import peopleSearch from './people-search.ts';
import sesWebhook from './webhooks-ses.ts';
import sendgridWebhook from './webhooks-sendgrid.ts';
import postmarkWebhook from './webhooks-postmark.ts';
import mailgunWebhook from './webhooks-mailgun.ts';
import adminSources from './admin-sources.ts';
import adminConsole from './admin-console.ts';
import adminLists from './admin-lists.ts';
import adminOps from './admin-ops.ts';
import adminExplore from './admin-explore.ts';
import v1 from './v1.ts';
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
