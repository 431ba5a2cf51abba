import { searchPeople } from '../../../operations/people-search.ts';
import { answerRoute } from '../../answer-route.ts';

/** POST /people-search (and LeadMagic's /v3/people/search): 0.05 credits per person returned. */
export default answerRoute('people-search', searchPeople);
