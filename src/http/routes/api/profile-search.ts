import { profileSearch } from '../../../operations/profile-search.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('profile-search', profileSearch);
