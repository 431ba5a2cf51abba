import { searchCompetitors } from '../../../operations/competitors-search.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('competitors-search', searchCompetitors);
